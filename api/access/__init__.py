"""The access layer: what an account may do, decided in one place.

- keys.py: the permission-key tree, the grants of each kind of account, the rule of section 6;
- reach.py: which devices an account reaches (owner, member, shared) and what a share's template
  shows; areas register their reach rules;
- gate.py: the one check of every operation's declared Need; areas register their object kinds.

It sits above the platform (api/tenancy) and sign-in (api/identity/auth) and below every business
area, which plugs in by registering; import-linter contracts (pyproject.toml) keep it so.
"""
