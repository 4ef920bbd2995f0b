# String and date columns: .str, to_datetime, .dt, resample.
# %%
import pandas as pd
log = pd.DataFrame({
    "when": ["2024-01-01 10:00", "2024-01-01 12:30", "2024-01-02 09:15", "2024-01-04 18:00"],
    "msg": ["Start job", "ERROR disk", "start job", "error net"],
})
log["when"] = pd.to_datetime(log["when"])
log["level"] = log["msg"].str.split().str[0].str.upper()
log
# %%
log["msg"].str.contains("error", case=False), log["when"].dt.day_name().tolist()
# %%
log.set_index("when").resample("D").size()
# %%
log["when"].max() - log["when"].min(), (log["when"] + pd.Timedelta(hours=1)).dt.hour.tolist()
# %%
pd.date_range("2024-03-01", periods=3, freq="W-MON")
# %%
log["msg"].str.extract(r"(\w+)$")
