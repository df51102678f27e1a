"""Indexes over the ingested rows: keyword (BM25), dense vectors, SQL tables, entities, bands, editions."""
