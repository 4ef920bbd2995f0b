# %% c1
from dataclasses import dataclass

@dataclass
class Settings:
    threshold: float = 0.5
    label: str = 'pos'
# %% c2
s = Settings()
s.threshold = 0.7
preds = [0.2, 0.65, 0.9]
labels = [s.label if p >= s.threshold else 'neg' for p in preds]
# ask: labels
