"""Proof of a human and of an address: image captchas and one-time codes sent by SMS or email."""
