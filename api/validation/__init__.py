"""The validation package (21 CFR Part 11, EU GMP Annex 11): `flask validation report` turns a test
run's JUnit XML and the clause -> tests mapping (docs/validation/part11.yaml) into an IQ/OQ document
a customer's QA can file."""
