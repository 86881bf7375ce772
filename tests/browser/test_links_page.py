"""Links that break a cross-key rule of docs/spec.md §6 through a field they did not set used
to leave the page at "Loading" with the tab burning CPU; each must reach ready."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Page

pytestmark = pytest.mark.browser

CROSS_KEY_LINKS = [
    "#limits.raw_records_read=100",  # below the default message page of 200
    "#limits.directory_sessions_read=10",  # below the default directory page of 50
    "#limits.lease_s=60",  # not above the default run timeout of 90
    "#limits.run_timeout_s=1",  # below the default model timeout of 30
    "#limits.model_timeout_s=100&limits.run_timeout_s=200&limits.lease_s=150",
    "#limits.lease_s=10&limits.raw_records_read=1&config.trigger_tokens=40000",
]


@pytest.mark.parametrize("link", CROSS_KEY_LINKS)
def test_a_cross_key_link_reaches_ready_and_says_why(page: Page, link: str) -> None:
    page.open(link)  # waits for html[data-state] to leave "loading" and asserts "ready"
    assert page.page.locator("html[data-state=ready]").count() == 1
    problems = page.text("#link-problems")
    assert "must be" in problems, problems
    assert "not used from the link" in problems, problems
    page.assert_no_internal_error()
    assert page.errors == []


def test_a_link_with_a_pinned_plan_opens_pinned_and_keeps_it_in_the_url(page: Page) -> None:
    link = "#config.trigger_tokens=40000&pin=1&pin.config.trigger_tokens=50000"
    page.open(link)
    assert page.page.get_attribute("#app", "data-ab") == "on"
    assert page.page.evaluate("location.hash") == link
    page.page.click('[data-action="unpin"]')
    page.page.wait_for_function("location.hash === '#config.trigger_tokens=40000'")
    page.assert_no_internal_error()
    assert page.errors == []


def test_a_link_pasted_into_an_open_tab_is_read_as_at_boot(page: Page) -> None:
    """The December walk: a new link put in the address bar of an open tab (only the
    fragment changes, so the page does not load again) left the page as it was."""
    page.open("")
    # At once after ready: the registry's load paints meanwhile and used to put the
    # default fragment back before the handler read location.hash.
    page.page.evaluate("location.hash = '#config.trigger_tokens=40000'")
    page.page.wait_for_function(
        "document.querySelector('[data-input=\"config.trigger_tokens\"]').value === '40,000'"
    )
    page.page.evaluate("location.hash = '#limits.lease_s=60'")
    page.page.wait_for_function(
        "document.querySelector('#link-problems').textContent.includes('must be')"
    )
    page.assert_no_internal_error()
    assert page.errors == []
