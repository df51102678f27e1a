"""The vocabulary: word lists and patterns that more than one step uses, kept as data with one owner.

Each idea has one table (a TOML file under ``vocabulary/data/``), loaded once by a cached loader in
this package and compiled here; the steps that use it import the compiled value, never write their
own. Routing, service, knowledge and learning all read the same tables.
"""
