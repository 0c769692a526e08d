"""Stability budgets (issue 48): a product's stability profile (the time it may spend in each
temperature band outside its labelled storage range, an optional MKT limit and an alert threshold),
assigned to a waybill's goods or to a storage's lot, its budget used computed live from the readings."""
