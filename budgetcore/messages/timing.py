"""Background timing in the replay's form (issue 22)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "label.background.billing_recorded": ("Billing record valid", "原请求账单有效"),
    "label.background.idle_slot": ("Idle background slot", "有空闲后台名额"),
    "label.background.lease_acquired": ("Lease acquired", "已获得租约"),
}
