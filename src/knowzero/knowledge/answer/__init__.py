"""Answering: retrieve, read, check and judge a question over the indexes."""
