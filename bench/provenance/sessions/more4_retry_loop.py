# %% c1
attempts_needed = 3
max_attempts = 5
# %% c2
attempt = 0
success = False
while attempt < max_attempts and not success:
    attempt += 1
    if attempt >= attempts_needed:
        success = True
status = 'ok' if success else 'failed'
# ask: attempt
# ask: status
