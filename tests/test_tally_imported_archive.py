"""``manage.py tally`` on a game imported from an archive into an empty database, not the tally command's own
game (``tests/test_tally_command.py``): a spectator's icon and an idle player's vote never count."""

from __future__ import annotations

import pytest

from blognomic.moving.archive import import_archive
from tests.test_archive import game_archive
from tests.test_tally_command import tally_json

pytestmark = pytest.mark.django_db


def test_a_non_players_icon_in_an_imported_archive_never_counts():
    """A spectator's FOR comment is kept but carries no vote; the idle player is not active."""
    import_archive(game_archive())

    report = tally_json("quorum_failures", "2016-07-25T14:00:00Z")

    assert report["votes"] == {"Prince Anduril": "against", "Seventy-Fifth Trombone": "for", "ais523": "for"}
    assert (report["active_players"], report["quorum"]) == (5, 3)
    assert report["is_oldest_pending"] is True
    assert (report["for"], report["against"]) == (2, 1)
