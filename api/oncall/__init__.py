"""On-call schedules: who answers an alarm at an instant (a weekly rota with holidays and overrides)."""
