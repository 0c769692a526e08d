"""Accounts: enterprise and personal account holders, operators and reseller admins."""
