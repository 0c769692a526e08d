"""Platform customization (/customized/list): branded sites managed by the operator and their resellers."""
