"""The pages, one module per area; ``zdb.web.install_web`` mounts their routers."""
