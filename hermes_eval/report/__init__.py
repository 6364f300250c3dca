"""Reports: markdown and HTML leaderboards (jinja2 templates under templates/)."""
