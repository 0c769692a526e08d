"""FDA 21 CFR Part 11: FDA mode, endorsements, electronic signatures on data files."""
