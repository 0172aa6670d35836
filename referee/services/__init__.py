"""Services: the glue between stored rows and the engine. They own the commits."""
