# %% c1
import pandas as pd
visits = pd.DataFrame([
    {'patient_id': 1, 'doctor': 'Ito', 'minutes': 15},
    {'patient_id': 2, 'doctor': 'Ortiz', 'minutes': 30},
    {'patient_id': 1, 'doctor': 'Ortiz', 'minutes': 20},
    {'patient_id': 3, 'doctor': 'Ito', 'minutes': 45},
    {'patient_id': 4, 'doctor': 'Ito', 'minutes': 10},
])
patients = pd.DataFrame([
    {'patient_id': 1, 'age': 34, 'plan': 'basic'},
    {'patient_id': 2, 'age': 71, 'plan': 'senior'},
    {'patient_id': 3, 'age': 68, 'plan': 'senior'},
    {'patient_id': 4, 'age': 25, 'plan': 'basic'},
])
rate_per_min = 2.5
# %% c2
df = visits.merge(patients, on='patient_id', how='left')
df['fee'] = df.apply(lambda r: r['minutes'] * rate_per_min * (0.5 if r['plan'] == 'senior' else 1.0), axis=1)
# %% c3
fees_by_doctor = df.groupby('doctor')['fee'].sum()
visits_by_plan = df.groupby('plan').size()
ito_fees = fees_by_doctor['Ito']
# ask: ito_fees
# ask: visits_by_plan['senior']
