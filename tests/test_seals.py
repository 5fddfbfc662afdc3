"""Sealed commitments (2015's Codenames, 2008's printed cards): a digest public at once, the text kept by its
owner, a reveal verified against the digest; a reveal that does not match is refused and changes nothing."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from django.urls import reverse

from blognomic.community.commitments.digest import reveal_matches, seal_digest
from blognomic.community.commitments.models import Seal
from blognomic.community.commitments.services import NO_MATCH, SealError, seal_create, seal_reveal
from tests.factories import PASSWORD, make_spectator, make_table

pytestmark = pytest.mark.django_db
SENTENCE = ":PROTO is owned by Cato.\n"


def test_the_digest_is_sha256_of_the_nonce_a_newline_and_the_text():
    assert seal_digest("3H 4S", "ab") == hashlib.sha256(b"ab\n3H 4S").hexdigest()
    assert reveal_matches("3H 4S", nonce="ab", digest=seal_digest("3H 4S", "ab"))
    assert not reveal_matches("3H 4S ", nonce="ab", digest=seal_digest("3H 4S", "ab"))


def test_a_seal_shows_its_digest_at_once_and_keeps_its_text_and_nonce_secret(client, t0):
    players = make_table(3, start=t0)
    seal = seal_create(owner=players[2], title="Codename ownership", text=SENTENCE, now=t0)
    assert seal.revealed_text == "" and SENTENCE not in str(Seal.objects.values().get())
    page = client.get(reverse("seals")).content.decode()
    assert seal.digest in page and "Codename ownership" in page and seal.nonce not in page


def test_the_owner_reveals_and_anyone_can_check_it(client, t0):
    players = make_table(3, start=t0)
    seal = seal_create(owner=players[2], title="Hole cards", text=SENTENCE, now=t0)
    seal_reveal(seal=seal, by=players[2], text=SENTENCE, now=t0 + timedelta(days=2))
    page = client.get(reverse("seals")).content.decode()
    assert "verified against the digest" in page and seal.nonce in page
    assert hashlib.sha256(f"{seal.nonce}\n{SENTENCE}".encode()).hexdigest() == seal.digest


@pytest.mark.parametrize("attempt", [":PROTO is owned by Cato.", ":PROTO is owned by Ada.\n", ""])
def test_a_reveal_that_does_not_match_is_refused_and_changes_nothing(t0, attempt):
    players = make_table(3, start=t0)
    seal = seal_create(owner=players[2], title="Hole cards", text=SENTENCE, now=t0)
    with pytest.raises(SealError):
        seal_reveal(seal=seal, by=players[2], text=attempt, now=t0 + timedelta(days=1))
    assert not Seal.objects.get().is_revealed


def test_only_the_owner_reveals_and_only_once(t0):
    players = make_table(3, start=t0)
    seal = seal_create(owner=players[2], title="Hole cards", text=SENTENCE, now=t0)
    with pytest.raises(SealError, match="Only P03"):
        seal_reveal(seal=seal, by=players[0], text=SENTENCE, now=t0)
    seal_reveal(seal=seal, by=players[2], text=SENTENCE, now=t0 + timedelta(hours=1))
    with pytest.raises(SealError, match="already revealed"):
        seal_reveal(seal=seal, by=players[2], text=SENTENCE, now=t0 + timedelta(hours=2))


def test_sealing_and_revealing_through_the_pages(client, t0):
    make_table(3, start=t0)
    assert client.login(username="P03", password=PASSWORD)
    assert client.post(reverse("seal_new"), {"title": "", "text": "x"}).status_code == 400
    assert client.post(reverse("seal_new"), {"title": "Cards", "text": "a\x00b"}).status_code == 400
    assert client.post(reverse("seal_new"), {"title": "Cards", "text": "AS KD"}).status_code == 302
    seal = Seal.objects.get()
    wrong = client.post(reverse("seal_reveal", args=[seal.pk]), {"text": "AS KH"})
    assert wrong.status_code == 400 and NO_MATCH[:40] in wrong.content.decode()
    assert client.post(reverse("seal_reveal", args=[seal.pk]), {"text": "AS KD"}).status_code == 302
    assert Seal.objects.get().revealed_text == "AS KD"


def test_spectators_may_not_seal(t0):
    with pytest.raises(SealError, match="Only players"):
        seal_create(owner=make_spectator("Sam"), title="Cards", text="AS", now=t0)
