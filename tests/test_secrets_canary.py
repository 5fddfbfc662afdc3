"""The secrets canary: no secret reaches a reader who may not see it, by any URL the site has.

"Secrets are absent, not hidden": what a reader may not see is never put into a response for them. Sentinels
(strings found nowhere else) are planted in the permission matrix's game (``tests/secrets_canary.py`` says
which, and who may see each); then every URL of the URL configuration is requested as every role of the
matrix — GET, GET as an htmx fragment, POST with the matrix's form data, the same URL with a bad id, and the
extra requests that aim it at the secrets — and each response's body and headers, and the page a POST
redirects to (where its messages show), are searched for every sentinel. A URL added to the site is
requested here without anyone listing it; one whose arguments nobody knows how to fill fails the first test.

The requests are the site's one sweep (``tests/site_sweep.py``), which the permission matrix and
reads-don't-write read too. A sentinel that the request itself carries (a search for it, a form typing it) is
not looked for in that response.
"""

from __future__ import annotations

import pytest

from tests.permissions import ROLES, url_patterns
from tests.secrets_canary import HIDDEN_COLUMN, NO_SUCH_COLUMN
from tests.site_sweep import Probe, first_difference

# The sweep is made once per process that runs one of its tests: kept on one worker, it is made once.
pytestmark = pytest.mark.xdist_group("site-sweep")


# Each test is marked as using the database (the sweep is made in it), so each runs on both databases' runs.
@pytest.mark.django_db
def test_every_url_is_requested_by_the_canary(site_sweep):
    """A URL added to the site is searched for secrets without anyone listing it: the canary walks the URL
    configuration, and a URL whose arguments it cannot fill fails here."""
    assert not site_sweep.unfillable, (
        "Say how to fill these URLs' arguments in tests/permissions.py (Game.args), so the permission matrix "
        f"and the secrets canary can request them: {site_sweep.unfillable}"
    )
    names = {name for name, _route, _pattern in url_patterns()}
    unknown = sorted(set(site_sweep.canary.variants) - names)
    assert not unknown, f"tests/secrets_canary.py aims at URL names that do not exist: {unknown}"


@pytest.mark.django_db
def test_no_sentinel_reaches_a_role_that_may_not_see_it(site_sweep):
    """Secrets are absent, not hidden: a hidden or owner-only value, a hidden column's name, a sealed text, a
    private message, an amendment's secret values and the comments of updates that touched only secrets are
    in no response (body, headers, or the page a form sends one to) to a role that may not see them."""
    endpoints = len({(probe.key, probe.method) for probe in site_sweep.probes})
    print(
        f"\nsecrets canary: {len(site_sweep.canary.sentinels)} sentinels, {len(site_sweep.probes)} requests × "
        f"{len(ROLES)} roles = {len(site_sweep.answers)} responses scanned, {endpoints} endpoints "
        f"(URL name × method) × {len(ROLES)} roles"
    )
    assert not site_sweep.leaks, f"{len(site_sweep.leaks)} leaks:\n" + "\n".join(sorted(set(site_sweep.leaks)))


@pytest.mark.django_db
def test_every_sentinel_is_shown_to_those_who_may_see_it(site_sweep):
    """The canary is not vacuous: each planted secret is shown somewhere to every role that must see it (the
    owner their own Role, the Emperor and admins the hidden column, the sender their message)."""
    missing = [
        f"{sentinel.name} ({sentinel.text}) never shown to {role}"
        for sentinel in site_sweep.canary.sentinels
        for role in sorted(sentinel.shown_to)
        if role not in site_sweep.shown[sentinel.name]
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.django_db
def test_no_response_depends_on_who_wrote_an_anonymous_call_for_judgement(site_sweep):
    """2008: "a Call for Judgement posted anonymously shows no author to anyone". Every response that mentions
    the anonymous CfJ, or is about it or its author, is the same, for every role, when another player is
    made its author: nothing in them links it to the one who wrote it."""
    assert site_sweep.about_cfj, "no response mentions the anonymous Call for Judgement: the check would be vacuous"
    different = site_sweep.author_differences
    assert not different, (
        f"{len(different)} of {len(site_sweep.about_cfj)} responses change with the anonymous "
        "author:\n" + "\n".join(different)
    )


@pytest.mark.django_db
def test_a_hidden_column_is_answered_as_one_that_does_not_exist(site_sweep):
    """A hidden column's existence is secret: to a role that may not see it, naming it (searching for it,
    sorting or filtering by it) gets the answer a column that does not exist gets."""
    hidden_sentinel = next(s for s in site_sweep.canary.sentinels if s.text == HIDDEN_COLUMN)
    different = []
    for (probe, role), answer in site_sweep.by_probe.items():
        if role in hidden_sentinel.may_see or not probe.carries(HIDDEN_COLUMN):
            continue
        data = {key: NO_SUCH_COLUMN if value == HIDDEN_COLUMN else value for key, value in probe.data.items()}
        twin = Probe(probe.key, probe.method, probe.path.replace(HIDDEN_COLUMN, NO_SUCH_COLUMN), data, probe.headers)
        other = site_sweep.by_probe.get((twin, role))
        if other is None:
            continue
        answer, other = answer.replace(HIDDEN_COLUMN, "X"), other.replace(NO_SUCH_COLUMN, "X")
        if answer != other:
            different.append(
                f"{probe.method} {probe.path} as {role}, the column that does not exist: "
                f"{first_difference(other, answer)}"
            )
    assert not different, "\n".join(different)
