# Single-node KRaft Kafka for local development.
# Rendered by deploy/local/stack.sh into .local/kafka/server.properties; the
# @PLACEHOLDERS@ are substituted there. Edit this template, not the rendered file.

############################# Roles / quorum #############################
process.roles=broker,controller
node.id=1
# Static quorum: works the same on Kafka 3.9 and 4.x and needs no --standalone at format time.
controller.quorum.voters=1@127.0.0.1:@KAFKA_CONTROLLER_PORT@

############################# Listeners #############################
listeners=PLAINTEXT://127.0.0.1:@KAFKA_PORT@,CONTROLLER://127.0.0.1:@KAFKA_CONTROLLER_PORT@
advertised.listeners=PLAINTEXT://127.0.0.1:@KAFKA_PORT@
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT

############################# Storage #############################
log.dirs=@KAFKA_DATA_DIR@
num.partitions=1
num.recovery.threads.per.data.dir=1
# Topics are created explicitly by the ops tooling; never implicitly.
auto.create.topics.enable=false
delete.topic.enable=true

############################# Single-node replication #############################
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
# Kafka 4.x only (share groups); ignored with a warning by 3.x.
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1

############################# Groups #############################
group.initial.rebalance.delay.ms=0

############################# Retention (defaults) #############################
log.retention.hours=168
log.segment.bytes=1073741824
log.retention.check.interval.ms=300000

############################# Threads (small machine) #############################
num.network.threads=2
num.io.threads=4

############################# At rest (a single node) #############################
# The active controller appends a no-op record to the metadata log this often when nothing else is
# written (default 500 ms: two raft appends, fsyncs and metadata publications a second, the largest
# part of an idle broker's own CPU). A single node has no follower to keep in step with it.
metadata.max.idle.interval.ms=5000
# The broker's heartbeat to its own controller (default every 2 s, fenced after 9 s).
broker.heartbeat.interval.ms=5000
broker.session.timeout.ms=18000
