"""The HTTP API: ``protocol`` (pydantic schemas), ``api_router`` (FastAPI routes), ``serving`` (logic)."""
