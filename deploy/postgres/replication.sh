#!/bin/sh
# Run once by the postgres image when it creates its database (docker-entrypoint-initdb.d): the
# streaming replica (compose's postgres-replica) copies and follows the primary over the network
# with the zdb user's password. The image's pg_hba.conf allows replication from the container
# itself only.
set -e
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
