"""The provincial data interface: an account's connector uploads its devices' and storages'
readings, interval by interval, to a supervision platform, signed, retried and logged."""
