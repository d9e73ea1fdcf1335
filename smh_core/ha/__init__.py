"""SMH's side of a Home Assistant connection, outside HA: the benchmark run through a live HA
(`runner`), on physical devices (`hardware`, with the task-device-to-entity binding in
`hardware_map`), spoken turns through Assist pipelines (`voice_pipeline`, `voice_run`), the
websocket client they share (`websocket`) and the synthesizer's export to HA automation YAML
(`automation_export`).

This package sits above the benchmark (it reuses its tasks, verifier and results log) and below
the CLI; nothing in it imports Home Assistant itself, so it runs against any HA over the network.
"""
