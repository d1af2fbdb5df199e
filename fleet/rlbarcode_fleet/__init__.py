"""rlbarcode fleet service and archive job.

`rlbarcode_fleet.service` runs the camera pipelines of a configuration file and
publishes the element's messages to MQTT; `rlbarcode_fleet.archive` scans
recorded video on a Dask cluster. See docs/FLEET.md.
"""
