"""``/stats/``: the numbers on a game played through the real services, the images, the cache and query counts."""

from __future__ import annotations

import re
import struct
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from blognomic.community.stats import selectors
from blognomic.community.stats import views as stats_views
from blognomic.community.stats.plots import CHARTS
from blognomic.community.stats.views import IMMUTABLE, NO_SUCH_CHART
from tests.factories import T0, make_proposal, make_table, vote
from votes.posting import post_create
from votes.services import matter_reopen, matter_resolve

pytestmark = pytest.mark.django_db
# Cold cache: the version, then the seven aggregate queries. Warm, through the views: none (the version is
# kept until the content changes).
COLD_QUERIES = 8


@pytest.fixture(autouse=True)
def own_cache(settings):
    """A cache of this test's own: versions repeat across tests when a database reuses ids after rollback."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "stats-tests"}
    }
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def build_game():
    """Dynasty 1: A enacted after 13 hours, B failed after 14 hours (July); C pending and a winning DoV (August)."""
    players = make_table(7, start=T0)
    p = {user.username: user for user in players}
    a = make_proposal(p["P03"], at=T0, title="Proposal: Lighthouses")
    b = make_proposal(p["P04"], at=T0 + timedelta(minutes=10), title="Proposal: Foghorns")
    for name in ("P04", "P05", "P06", "P07"):
        vote(a, p[name], "for", at=T0 + timedelta(hours=1))
    for name in ("P03", "P05", "P06", "P07"):
        vote(b, p[name], "against", at=T0 + timedelta(hours=1))
    matter_resolve(post=a, admin=p["P02"], action="enact", now=T0 + timedelta(hours=13))
    matter_resolve(post=b, admin=p["P02"], action="fail", now=T0 + timedelta(hours=14))
    august = T0 + timedelta(days=8)
    c = make_proposal(p["P03"], at=august, title="Proposal: Beacons")
    dov = post_create(
        author=p["P05"],
        kind="dov",
        title="Declaration of Victory: Every Lamp Lit",
        body="See the GNDT.",
        now=august + timedelta(hours=1),
    )
    for name in ("P01", "P02", "P04", "P06"):
        vote(dov, p[name], "for", at=august + timedelta(hours=2))
    matter_resolve(post=dov, admin=p["P02"], action="enact", now=august + timedelta(hours=14))
    return {"players": p, "a": a, "b": b, "c": c, "dov": dov, "t0": T0, "later": august + timedelta(days=1)}


@pytest.fixture
def game(db):
    return build_game()


def test_proposals_per_dynasty_count_each_status(game):
    [row] = selectors.proposals_by_dynasty()
    assert (row.number, row.proposals, row.enacted, row.failed, row.pending) == (1, 3, 1, 1, 1)


def test_active_players_are_counted_once_a_month_from_posts_and_comments(game):
    """July: the two proposers and their voters (P03–P07). August: C's author, the DoV's and its voters."""
    months = {m.month.strftime("%Y-%m"): m.players for m in selectors.active_by_month()}
    assert months == {"2016-07": 5, "2016-08": 6}


def test_resolution_times_bin_the_hours_from_posting_to_resolution(game):
    times = selectors.resolution_times()
    assert times.resolved == 2  # proposals only: the DoV is not counted
    assert times.counts[2] == 2 and sum(times.counts) == 2  # 13 and 14 hours: the 12–18 hour bin
    assert times.within_two_days == 2


def test_each_players_proposals_pass_rate_and_votes(game):
    records = {r.name: r for r in selectors.player_records()}
    assert records["P03"].proposals == 2 and records["P03"].enacted == 1 and records["P03"].pass_rate == 1.0
    assert records["P04"].pass_rate == 0.0
    assert records["P07"].proposals == 0 and records["P07"].pass_rate is None
    assert {name: r.votes for name, r in records.items()} == {
        "P01": 1,
        "P02": 1,
        "P03": 1,
        "P04": 2,
        "P05": 2,
        "P06": 3,
        "P07": 2,
    }
    assert [r.name for r in selectors.player_records()][:2] == ["P03", "P04"]


def test_dynasty_lengths_and_winners(game):
    first, second = selectors.dynasty_records(game["later"])
    assert (first.number, first.emperor, first.winner) == (1, "P01", "P05")
    assert first.days == pytest.approx((game["dov"].resolutions.get().at - first.started_at).total_seconds() / 86400)
    assert (second.number, second.emperor, second.winner, second.ended_at) == (2, "P05", None, None)
    stats = selectors.statistics(game["later"])
    assert stats.wins == [("P05", 1)]


def test_the_version_changes_with_a_post_a_comment_and_a_reopening(game):
    now, p = game["later"], game["players"]
    seen = {selectors.stats_version(now)}
    post_create(author=p["P06"], kind="story", title="Story Post: Lanterns", body="They glow.", now=now)
    seen.add(selectors.stats_version(now))
    vote(game["c"], p["P07"], None, at=now, text="Waiting for the hiatus to end.")
    seen.add(selectors.stats_version(now))
    matter_reopen(post=game["a"], admin=p["P02"], reason="Miscounted.", now=now)
    seen.add(selectors.stats_version(now))
    assert len(seen) == 4
    assert selectors.stats_version(now + timedelta(days=1)) not in seen  # the current dynasty grew a day


def test_the_pages_version_is_kept_until_the_content_or_the_day_changes(client, game):
    """The page counts the version once per content version and day: a comment changes it at once, and so
    does midnight with no write (the current dynasty grew a day), well within the hour it is kept for."""

    def shown_version() -> str:
        html = client.get(reverse("stats")).content.decode()
        return re.search(r"\?v=([^\"]+)\"", html).group(1)

    p = game["players"]
    before_midnight = game["later"].replace(hour=23, minute=50)
    with time_machine.travel(before_midnight, tick=False):
        first = shown_version()
        assert shown_version() == first
        vote(game["c"], p["P07"], None, at=before_midnight, text="Counting the lanterns again.")
        after_comment = shown_version()
    with time_machine.travel(before_midnight + timedelta(minutes=20), tick=False):
        next_day = shown_version()
    assert len({first, after_comment, next_day}) == 3
    assert after_comment == selectors.stats_version(before_midnight)


def test_statistics_take_a_fixed_number_of_queries(game, django_assert_num_queries):
    with django_assert_num_queries(COLD_QUERIES):
        selectors.statistics(game["later"])
    with django_assert_num_queries(COLD_QUERIES):
        selectors.cached_statistics(game["later"])
    with django_assert_num_queries(1):
        selectors.cached_statistics(game["later"])


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_page_embeds_every_chart_and_the_players_table(client, game):
    with time_machine.travel(game["later"], tick=False):
        response = client.get(reverse("stats"))
        version = selectors.stats_version(game["later"])
    html = response.content.decode()
    assert response.status_code == 200
    for slug in CHARTS:
        assert f'src="{reverse("stats_chart", args=[slug])}?v={version}"' in html
    assert "3 proposals, 1 enacted (33%)" in html
    assert '<a href="/players/P03/">P03</a></td><td class="number">2</td><td class="number">1</td>' in html
    assert 'href="/stats/">Statistics</a>' in html  # in the site's navigation


def test_the_page_shows_each_tables_head_and_links_the_whole_table(client, game, monkeypatch):
    """After twenty years the tables hold hundreds of rows: the page shows the first ones (the most
    proposals, the most wins, the newest dynasties) and links each whole table, a page of rows at a time."""
    monkeypatch.setattr(stats_views, "HEAD_ROWS", 2)
    monkeypatch.setattr(stats_views, "ROWS_PER_PAGE", 3)
    with time_machine.travel(game["later"], tick=False):
        html = client.get(reverse("stats")).content.decode()
        assert "The 2 with the most proposals:" in html and html.count("stats-players") == 1
        assert ">P03</a>" in html and ">P04</a>" in html and ">P07</a>" not in html
        assert f'<a href="{reverse("stats_table", args=["players"])}">All 7 players</a>' in html
        assert "All 1 winners" not in html, "a table that fits has no link"
        pages = {
            n: client.get(reverse("stats_table", args=["players"]), {"page": n}).content.decode()
            for n in ("1", "2", "3")
        }
        assert [pages[n].count('<tr><td><a href="/players/') for n in ("1", "2", "3")] == [3, 3, 1]
        assert "7 rows, 7–7 shown." in pages["3"] and 'rel="prev"' in pages["3"] and 'rel="next"' not in pages["3"]
        dynasties = client.get(reverse("stats_table", args=["dynasties"])).content.decode()
        assert dynasties.index('href="/dynasties/2/"') < dynasties.index('href="/dynasties/1/"')


@pytest.mark.parametrize("number", ["0", "-1", "abc", "99999999999999999999", "３", " "])
def test_any_page_number_shows_a_page_of_the_table(client, game, number):
    """A page number past either end shows the last page, anything that is not a number the first."""
    with time_machine.travel(game["later"], tick=False):
        response = client.get(reverse("stats_table", args=["winners"]), {"page": number})
    assert response.status_code == 200 and ">P05</a>" in response.content.decode()


def test_an_unknown_table_is_a_404_that_says_so(client, game):
    response = client.get(reverse("stats_table", args=["lighthouses"]))
    assert response.status_code == 404
    assert "no statistics table named" in response.content.decode()


@pytest.mark.parametrize("slug", list(CHARTS))
def test_each_chart_is_a_png(client, game, slug):
    with time_machine.travel(game["later"], tick=False):
        version = selectors.stats_version(game["later"])
        response = client.get(reverse("stats_chart", args=[slug]), {"v": version})
        unversioned = client.get(reverse("stats_chart", args=[slug]))
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    width, height = png_size(response.content)
    assert width == CHARTS[slug].width and height >= 300
    assert response["Cache-Control"] == IMMUTABLE
    assert unversioned["Cache-Control"] == "no-cache"


def test_an_unknown_chart_is_a_404_that_says_so(client):
    response = client.get("/stats/pie-of-everything.png")
    assert response.status_code == 404
    assert response.content.decode() == NO_SUCH_CHART.format(name="pie-of-everything")


def test_beat_works_the_statistics_out_before_a_reader_asks(game, django_assert_num_queries):
    """After a new post the minute's task aggregates afresh; the next reader only reads the version."""
    from blognomic.tasks import warm_statistics

    now, p = game["later"], game["players"]
    post_create(author=p["P06"], kind="story", title="Story Post: Lanterns", body="They glow.", now=now)
    with time_machine.travel(now, tick=False):
        with django_assert_num_queries(COLD_QUERIES):
            version = warm_statistics()
        with django_assert_num_queries(1):
            assert selectors.cached_statistics(now).version == version
        with django_assert_num_queries(1):
            assert warm_statistics() == version, "nothing new: nothing worked out again"


class WorkerElsewhere:
    """Counts queued to a worker, which runs them only when the test says (``run``)."""

    def __init__(self) -> None:
        self.queued = 0

    def delay(self) -> None:
        self.queued += 1

    def run(self, moment, *, took: float = 0.0) -> str:
        """The queued count, run at ``moment`` and taking ``took`` seconds by the worker's own clock."""
        readings = iter((0.0, took))
        with time_machine.travel(moment, tick=False):
            return selectors.count_afresh(rest=True, clock=lambda: next(readings))


@pytest.fixture
def worker(monkeypatch):
    elsewhere = WorkerElsewhere()
    monkeypatch.setattr(stats_views, "count_statistics", elsewhere)
    return elsewhere


@pytest.fixture
def aggregations(monkeypatch):
    """How many times the aggregates were worked out."""
    counted = []
    real = selectors.statistics

    def counting(now, **kwargs):
        counted.append(now)
        return real(now, **kwargs)

    monkeypatch.setattr(selectors, "statistics", counting)
    return counted


def reopen(game, moment) -> None:
    """A change the statistics show: the enacted Proposal reopened (the dynasty is over, so nothing can be posted)."""
    matter_reopen(post=game["a"], admin=game["players"]["P02"], reason="Miscounted.", now=moment)


def read(client, moment, name: str = "stats", *args: str) -> str:
    with time_machine.travel(moment, tick=False):
        return client.get(reverse(name, args=args)).content.decode()


def test_after_a_change_readers_see_the_last_figures_saying_when_while_one_count_is_queued(
    client, game, worker, aggregations
):
    """Finding: "/stats/ after any comment costs its first reader" the whole aggregation (seconds at ten times
    the history). With a worker, readers after a change get the last figures at once, told when they were
    worked out, and the busy evening's readers queue one count between them."""
    later = game["later"]
    first = read(client, later)
    assert "1 enacted" in first and "Redrawn with every new post" in first
    assert (len(aggregations), worker.queued) == (1, 0), "no figures yet: worked out for the first reader"
    reopen(game, later + timedelta(minutes=1))
    pages = [read(client, later + timedelta(minutes=2), *where) for where in [(), (), ("stats_table", "players")]]
    assert all("Figures as of" in page for page in pages) and "1 enacted" in pages[0]
    assert f'datetime="{later:%Y-%m-%dT%H:%M:%S}' in pages[0]
    assert (len(aggregations), worker.queued) == (1, 1), "nothing worked out in a request; one count queued"
    [old_version] = set(re.findall(r"\?v=([\w-]+)", pages[0]))
    with time_machine.travel(later + timedelta(minutes=2), tick=False):
        chart = client.get(reverse("stats_chart", args=["top-players"]), {"v": old_version})
    assert chart["Cache-Control"] == IMMUTABLE and len(aggregations) == 1, "the images drawn from what the page shows"
    worker.run(later + timedelta(minutes=2, seconds=30))
    fresh = read(client, later + timedelta(minutes=3))
    assert "0 enacted" in fresh and "Redrawn with every new post" in fresh and len(aggregations) == 2


def test_a_page_showing_figures_behind_is_rendered_again_soon_after_the_count(client, game, worker):
    """The count writes nothing to the database, so no content version moves: the stored page that shows
    figures behind says it is good for ``RECHECK`` only."""
    later = game["later"]
    read(client, later)
    reopen(game, later + timedelta(minutes=1))
    assert "Figures as of" in read(client, later + timedelta(minutes=2))
    worker.run(later + timedelta(minutes=2, seconds=1))
    assert "Figures as of" in read(client, later + timedelta(minutes=2, seconds=5)), "served as stored"
    after = read(client, later + timedelta(minutes=2) + selectors.RECHECK + timedelta(seconds=1))
    assert "0 enacted" in after and "Figures as of" not in after


def test_figures_further_behind_than_the_stalest_are_worked_out_in_the_request(client, game, worker, aggregations):
    """A worker that never comes (stopped, say) leaves readers at most ``STALEST`` behind."""
    later = game["later"]
    read(client, later)
    reopen(game, later + timedelta(minutes=1))
    assert "Figures as of" in read(client, later + timedelta(minutes=2))
    page = read(client, later + selectors.STALEST + timedelta(minutes=1))
    assert "0 enacted" in page and len(aggregations) == 2


def test_without_a_worker_the_count_runs_at_once_and_the_page_is_never_behind(client, game, aggregations):
    later = game["later"]
    read(client, later)
    reopen(game, later + timedelta(minutes=1))
    page = read(client, later + timedelta(minutes=2))
    assert "0 enacted" in page and "Figures as of" not in page and len(aggregations) == 2
    assert "0 enacted" in read(client, later + timedelta(minutes=3)), "and the next count may be queued"
    matter_reopen(post=game["b"], admin=game["players"]["P02"], reason="Miscounted.", now=later + timedelta(minutes=4))
    assert "Figures as of" not in read(client, later + timedelta(minutes=5)) and len(aggregations) == 3


def test_a_count_on_a_worker_rests_nine_times_as_long_before_the_next_is_queued(client, game, worker, aggregations):
    """Finding: with a vote every two seconds at ten times the history, each count (3.3 s) was queued again as soon
    as it ended, keeping a worker busy with statistics alone. A count that took 2 s rests 18 s: readers meanwhile
    get its figures, saying when, and queue nothing; the first reader after the rest (and after the page showing
    figures behind is rendered again) queues the next."""
    later = game["later"]
    read(client, later)
    reopen(game, later + timedelta(minutes=1))
    read(client, later + timedelta(minutes=2))
    counted = later + timedelta(minutes=2, seconds=5)
    worker.run(counted, took=2.0)
    assert (len(aggregations), worker.queued) == (2, 1)
    matter_reopen(post=game["b"], admin=game["players"]["P02"], reason="Miscounted.", now=counted)
    resting = read(client, counted + timedelta(seconds=10))
    assert "Figures as of" in resting and "0 enacted" in resting
    assert worker.queued == 1, "resting: nothing queued"
    assert selectors.RECHECK < timedelta(seconds=16), "the page showing figures behind is stored until then"
    read(client, counted + timedelta(seconds=26))
    assert worker.queued == 2, "the rest is over: the next count is queued"


def test_beat_counts_neither_while_a_count_rests_nor_twice_for_one_change(game, aggregations):
    from blognomic.tasks import warm_statistics

    now = game["later"]
    with time_machine.travel(now, tick=False):
        first = warm_statistics()
    WorkerElsewhere().run(now, took=10.0)  # nothing new: served from the cache, but it rests all the same
    reopen(game, now + timedelta(seconds=30))
    with time_machine.travel(now + timedelta(seconds=60), tick=False):
        assert warm_statistics() == first and len(aggregations) == 1, "resting: the last figures stand"
    with time_machine.travel(now + timedelta(seconds=91), tick=False):
        assert warm_statistics() != first and len(aggregations) == 2, "rested: counted"


def test_a_slow_count_rests_no_longer_than_the_longest_rest(game):
    now = game["later"]
    WorkerElsewhere().run(now, took=3600.0)
    with time_machine.travel(now + selectors.REST_LONGEST - timedelta(seconds=1), tick=False):
        assert cache_holds(selectors.COUNTING_KEY)
    with time_machine.travel(now + selectors.REST_LONGEST + timedelta(seconds=1), tick=False):
        assert not cache_holds(selectors.COUNTING_KEY)


def test_a_count_run_in_process_never_rests_but_one_on_a_worker_does(game, monkeypatch):
    """Without a worker the reader waits for the count, so nothing is saved by resting: the next change is
    counted for the next reader at once."""
    from blognomic.community.stats.tasks import count_statistics

    monkeypatch.setattr(selectors, "REST_FACTOR", 10**9)  # any count at all would rest the longest rest
    with time_machine.travel(game["later"], tick=False):
        count_statistics.apply()
        assert not cache_holds(selectors.COUNTING_KEY), "in-process: no rest"
        count_statistics()  # as a worker runs it
        assert cache_holds(selectors.COUNTING_KEY), "on a worker: resting"


def cache_holds(key: str) -> bool:
    from django.core.cache import cache

    return cache.get(key) is not None
