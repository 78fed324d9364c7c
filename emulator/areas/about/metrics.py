"""The system-status metrics: GeoServer's ``MetricInfo`` table and how rows are made from it.

Each ``MetricInfo`` yields one or more rows (``MetricValue``): several for per-CPU,
per-partition, per-interface and per-fan metrics, one ``NOT AVAILABLE`` row when nothing
was measured. Rows are sorted by priority, stably, as ``Metrics.addMetrics`` does.
Values keep their Java type: ``str`` (String), ``int`` (Long/Integer) or ``float``
(Double); it decides how XML, JSON and HTML write them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ...core.record import record
from ...wire.geoserver.java import fixed as java_fixed
from ...wire.geoserver.jettison import Scalar

NOT_AVAILABLE = "NOT AVAILABLE"


@record(frozen=True)
class MetricInfo:
    name: str
    category: str
    priority: int
    description: str
    unit: str = ""


METRIC_INFOS: tuple[MetricInfo, ...] = (
    MetricInfo("OPERATING_SYSTEM", "SYSTEM", 1, "Operating system"),
    MetricInfo("SYSTEM_UPTIME", "SYSTEM", 2, "Uptime", "sec"),
    MetricInfo("SYSTEM_AVERAGE_LOAD_1", "SYSTEM", 3, "System average load 1 minute"),
    MetricInfo("SYSTEM_AVERAGE_LOAD_5", "SYSTEM", 3, "System average load 5 minutes"),
    MetricInfo("SYSTEM_AVERAGE_LOAD_15", "SYSTEM", 3, "System average load 15 minutes"),
    MetricInfo("PHYSICAL_CPUS", "CPU", 100, "Number of physical CPUs"),
    MetricInfo("LOGICAL_CPUS", "CPU", 101, "Number of logical CPUs"),
    MetricInfo("RUNNING_PROCESS", "CPU", 102, "Number of running process"),
    MetricInfo("RUNNING_THREADS", "CPU", 103, "Number of running threads"),
    MetricInfo("CPU_LOAD", "CPU", 104, "CPU average load", "%"),
    MetricInfo("PER_CPU_LOAD", "CPU", 105, "CPU load", "%"),
    MetricInfo("MEMORY_USED", "MEMORY", 200, "Used physical memory ", "%"),
    MetricInfo("MEMORY_TOTAL", "MEMORY", 201, "Total physical memory ", "bytes"),
    MetricInfo("MEMORY_FREE", "MEMORY", 201, "Free physical memory", "bytes"),
    MetricInfo("SWAP_USED", "SWAP", 300, "Used swap memory", "%"),
    MetricInfo("SWAP_TOTAL", "SWAP", 301, "Total swap memory", "bytes"),
    MetricInfo("SWAP_FREE", "SWAP", 302, "Free swap memory", "bytes"),
    MetricInfo("FILE_SYSTEM_TOTAL_USAGE", "FILE_SYSTEM", 400, "File system usage", "%"),
    MetricInfo("PARTITION_USED", "FILE_SYSTEM", 500, "Partition space used", "%"),
    MetricInfo("PARTITION_TOTAL", "FILE_SYSTEM", 501, "Partition total space", "bytes"),
    MetricInfo("PARTITION_FREE", "FILE_SYSTEM", 502, "Partition free space", "bytes"),
    MetricInfo("NETWORK_INTERFACES_SEND", "NETWORK", 800, "Network interfaces send", "bytes"),
    MetricInfo(
        "NETWORK_INTERFACES_RECEIVED", "NETWORK", 801, "Network interfaces received", "bytes"
    ),
    MetricInfo("NETWORK_INTERFACE_SEND", "NETWORK", 900, "Network interface band usage", "bytes"),
    MetricInfo(
        "NETWORK_INTERFACE_RECEIVED", "NETWORK", 901, "Network interface available band", "bytes"
    ),
    MetricInfo("TEMPERATURE", "SENSORS", 1200, "CPU temperature", "°C"),
    MetricInfo("VOLTAGE", "SENSORS", 1201, "CPU voltage", "V"),
    MetricInfo("FAN_SPEED", "SENSORS", 1202, "Fan speed", "rpm"),
    MetricInfo("GEOSERVER_CPU_USAGE", "GEOSERVER", 1300, "GeoServer CPU usage", "%"),
    MetricInfo("GEOSERVER_THREADS", "GEOSERVER", 1301, "GeoServer threads"),
    MetricInfo("GEOSERVER_JVM_MEMORY_USAGE", "GEOSERVER", 1302, "GeoServer JVM memory usage", "%"),
)
INFOS_BY_NAME = {info.name: info for info in METRIC_INFOS}


@record
class MetricSample:
    """A measured value for one ``MetricInfo``, with the per-instance overrides the OSHI
    collector sets (``name`` for fans, ``description``/``identifier``/``priority`` for CPUs,
    partitions and interfaces)."""

    metric: str
    value: Scalar
    available: bool = True
    name: str | None = None
    description: str | None = None
    identifier: str | None = None
    priority: int | None = None


@record(frozen=True)
class MetricValue:
    """One row of ``/about/system-status``, fields in ``MetricValue``'s declaration order."""

    available: bool
    description: str
    name: str
    unit: str
    category: str
    identifier: str
    priority: int
    value: Scalar

    def value_unit(self) -> str:
        """The HTML table's value cell (``MetricValue.getValueUnit``)."""
        if not self.available:
            return NOT_AVAILABLE
        if isinstance(self.value, float):
            return f"{java_fixed(self.value, 2)} {self.unit}"
        if self.unit.lower() == "bytes" and isinstance(self.value, int):
            return human_bytes(self.value)
        if self.unit.lower() == "sec" and isinstance(self.value, int):
            return local_time(self.value)
        value = ("true" if self.value else "false") if isinstance(self.value, bool) else self.value
        return f"{value} {self.unit}"


def unavailable(info: MetricInfo) -> MetricValue:
    return MetricValue(
        False,
        info.description,
        info.name,
        info.unit,
        info.category,
        info.name,
        info.priority,
        NOT_AVAILABLE,
    )


def row(info: MetricInfo, sample: MetricSample, elapsed: float = 0.0) -> MetricValue:
    if not sample.available:
        base = unavailable(info)
        return MetricValue(
            False,
            sample.description or base.description,
            sample.name or base.name,
            base.unit,
            base.category,
            sample.identifier or base.identifier,
            base.priority if sample.priority is None else sample.priority,
            NOT_AVAILABLE,
        )
    value = sample.value
    if info.name == "SYSTEM_UPTIME" and isinstance(value, int) and not isinstance(value, bool):
        value += int(elapsed)
    return MetricValue(
        True,
        info.description if sample.description is None else sample.description,
        sample.name or info.name,
        info.unit,
        info.category,
        sample.identifier or info.name,
        info.priority if sample.priority is None else sample.priority,
        value,
    )


def assemble(samples: Iterable[MetricSample], elapsed: float = 0.0) -> list[MetricValue]:
    """Every ``MetricInfo``'s rows, in table order, then stably sorted by priority."""
    grouped: dict[str, list[MetricSample]] = {}
    for s in samples:
        grouped.setdefault(s.metric, []).append(s)
    rows: list[MetricValue] = []
    for info in METRIC_INFOS:
        got = grouped.get(info.name)
        if got:
            rows.extend(row(info, s, elapsed) for s in got)
        else:
            rows.append(unavailable(info))
    rows.sort(key=lambda r: r.priority)
    return rows


def human_bytes(count: int) -> str:
    """``humanReadableByteCount``: binary units, one decimal (``"16.0 GiB"``, ``"512 B"``)."""
    if count < 1024:
        return f"{count} B"
    exp = int(math.log(count) / math.log(1024))
    return f"{java_fixed(count / 1024**exp, 1)} {'KMGTPE'[exp - 1]}iB"


def local_time(seconds: int) -> str:
    """``LocalTime.MIN.plusSeconds(s).toString()``: ``HH:mm``, or ``HH:mm:ss`` when the
    seconds are not zero; wraps at 24 hours."""
    s = seconds % 86400
    hh, mm, ss = s // 3600, s % 3600 // 60, s % 60
    return f"{hh:02d}:{mm:02d}" if ss == 0 else f"{hh:02d}:{mm:02d}:{ss:02d}"
