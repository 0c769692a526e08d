"""The identity floor: who is signed in. Accounts and their sessions (models), sign-in by bearer token
(auth), session issue and expiry (sessions), the sign-in throttle, staff roles, account lookup, user
names and the field validators of an account. It sits above tenancy and below access; it imports no
business area (the account area's routes and services, organization's welcome, are above it)."""
