"""An import that fails with credentials in its message, as a failed download does.

The probe reports the message; no output format may carry the password or the token.
"""
raise ImportError(
    "cannot fetch https://alice:pa55@word@models.example.com/w.bin "
    "(Authorization: Bearer abcdefghijklmnop1234; token hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345)"
)
