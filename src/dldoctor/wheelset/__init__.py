"""Foreign analysis: judge a Windows environment or wheel set from any OS, before installing."""
