"""Persistence: accounts, tables, deals and the append-only event log (SQLite or PostgreSQL).

Imports flow one way: storage knows the engines' record format (plain JSON) but no rule, and the
server drives storage; nothing here imports the server.
"""
