# %% c1
emails = ['ann@uni.edu', 'bob@corp.com', 'cy@uni.edu', 'dee@shop.io']
target_domain = 'uni.edu'
# %% c2
domains = [e.split('@')[1] for e in emails]
at_target = [e for e, d in zip(emails, domains) if d == target_domain]
n_domains = len(set(domains))
# ask: at_target
# ask: n_domains
