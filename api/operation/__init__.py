"""The operator's system area: system users and staff roles (/operation/consumer/list, /operation/consumer/role)."""
