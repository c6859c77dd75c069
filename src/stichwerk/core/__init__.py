"""What both engines share: actions, errors, bit sets, deterministic shuffling and record helpers.

This package imports nothing else of ``stichwerk``.
"""
