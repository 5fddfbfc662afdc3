"""`python manage.py export_mediawiki FILE.xml` writes a file that validates against MediaWiki's own
``export-0.11.xsd``, as Debian's mediawiki package ships it (the package the round-trip test runs)."""

from __future__ import annotations

import gzip
import io
import os
from datetime import timedelta

import pytest
from django.core.management import call_command
from lxml import etree

from blognomic.moving.mediawiki.importing import import_mediawiki
from ruleset.services import page_create, revision_add
from tests.factories import make_player
from tests.mediawiki.exports import blognomic_wiki

pytestmark = pytest.mark.django_db

SCHEMA = "/usr/share/doc/mediawiki/docs/export-0.11.xsd"
XML_NAMESPACE_SCHEMA = "http://www.w3.org/2001/xml.xsd"
# The export schema imports the W3C's schema of the xml: attributes from the web; the suite reads nothing from
# there, so the attributes an export uses are declared here, as that schema declares them.
XML_ATTRIBUTES = b"""<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/XML/1998/namespace"
           xml:lang="en">
  <xs:attribute name="lang" type="xs:language"/>
  <xs:attribute name="space">
    <xs:simpleType>
      <xs:restriction base="xs:NCName">
        <xs:enumeration value="default"/>
        <xs:enumeration value="preserve"/>
      </xs:restriction>
    </xs:simpleType>
  </xs:attribute>
  <xs:attribute name="base" type="xs:anyURI"/>
  <xs:attribute name="id" type="xs:ID"/>
</xs:schema>
"""


class _XmlAttributes(etree.Resolver):
    def resolve(self, url, pubid, context):
        if url == XML_NAMESPACE_SCHEMA:
            return self.resolve_string(XML_ATTRIBUTES, context)
        return None


def _schema_text() -> bytes:
    for path, opener in ((SCHEMA, open), (SCHEMA + ".gz", gzip.open)):
        if os.path.exists(path):
            with opener(path, "rb") as schema:
                return schema.read()
    pytest.fail(f"MediaWiki's {os.path.basename(SCHEMA)} is missing: `make test` installs Debian's mediawiki package.")


@pytest.fixture
def schema() -> etree.XMLSchema:
    parser = etree.XMLParser(no_network=True, resolve_entities=False)
    parser.resolvers.add(_XmlAttributes())
    return etree.XMLSchema(etree.fromstring(_schema_text(), parser, base_url=SCHEMA))


def _export(tmp_path) -> etree._ElementTree:
    path = tmp_path / "export.xml"
    call_command("export_mediawiki", str(path), stdout=io.StringIO())
    return etree.parse(str(path), etree.XMLParser(no_network=True, resolve_entities=False))


def test_our_export_validates_against_mediawikis_schema(schema, tmp_path, t0):
    """Imported history, a page edited here and a revision with nobody shown all validate."""
    import_mediawiki(io.BytesIO(blognomic_wiki(newer=True)))
    ada = make_player("Ada", joined_at=t0)
    board = page_create(title="Harbour board", author=ada, text="''Lit'' & <dim>", now=t0, summary="Lamps & <fog>")
    revision_add(page=board, author=ada, text="Dark now.\r\n* one", now=t0 + timedelta(seconds=2))
    document = _export(tmp_path)
    assert schema.validate(document), schema.error_log.filter_from_errors()
    assert len(document.findall(".//{*}revision")) == 8


def test_a_revision_without_its_origin_is_refused_by_the_schema(schema, tmp_path, t0):
    """The check can fail: the order MediaWiki requires (comment, origin, model) is what the schema checks."""
    import_mediawiki(io.BytesIO(blognomic_wiki()))
    document = _export(tmp_path)
    origin = document.find(".//{*}revision/{*}origin")
    origin.getparent().remove(origin)
    assert not schema.validate(document)
    assert "origin" in str(schema.error_log.filter_from_errors())
