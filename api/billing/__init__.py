"""Billing: service packages, SMS / voice packs, activities, orders and their payment (WeChat Pay,
Alipay, PayPal, offline), invoices, coupons, recharge cards and offline purchases. Amounts in cents."""
