"""The import store (``state.importer``): import contexts, their tasks, and the jobs the
simulated clock runs.

As GeoServer's ``MemoryImportStore`` (the default import store): contexts live in memory,
ids count from 0 (``PUT /imports/<id>`` moves the counter past ``id``), and the list is in
the order contexts were last saved (saving one moves it to the end). Nothing here is written
to the data directory, so a scenario dump does not carry imports (as a restarted GeoServer
has none); a reset forgets them with the rest of the state.

The names and states are GeoServer's: ``ImportContext.State`` (``INIT``, ``INIT_ERROR``,
``PENDING``, ``RUNNING``, ``COMPLETE``), ``ImportTask.State`` (``PENDING``, ``READY``,
``RUNNING``, ``NO_CRS``, ``NO_BOUNDS``, ``NO_FORMAT``, ``BAD_FORMAT``, ``ERROR``,
``CANCELED``, ``COMPLETE``) and ``UpdateMode`` (``CREATE``, ``REPLACE``, ``APPEND``,
``UPDATE``).
"""

from __future__ import annotations

from typing import Any

from ...core.errors import NotFound
from ...core.record import field, record
from ...core.trackeddict import TrackedDict
from ...core.tracking import tracked
from ...features.model import FeatureTable
from ..catalog.entities import Attribute, BBox, StyleRef
from ..mosaics.sources import FileRef
from ..uploads.rasters import Raster

CONTEXT_STATES = ("INIT", "INIT_ERROR", "PENDING", "RUNNING", "COMPLETE")
TASK_STATES = (
    "PENDING", "READY", "RUNNING", "NO_CRS", "NO_BOUNDS", "NO_FORMAT", "BAD_FORMAT", "ERROR",
    "CANCELED", "COMPLETE",
)  # fmt: skip
UPDATE_MODES = ("CREATE", "REPLACE", "APPEND", "UPDATE")
MAX_IMPORTS = 100
"""past this many imports, adding one forgets the complete ones (``MemoryImportStore``)"""


@record
class FileEntry:
    """One file of import data as the importer's ``SpatialFile`` sees it: the main file,
    its ``.prj`` and its other side files (same name), its style file (``.sld``)."""

    name: str
    """the main file's path relative to the data's folder"""
    format: str | None = None
    """the format's name (``Shapefile``, ``GeoPackage``, ``GeoTIFF``…), None when unknown"""
    prj: str | None = None
    other: list[str] = field(default_factory=list)
    style: str | None = None

    @property
    def basename(self) -> str:
        return self.name.rsplit("/", 1)[-1]


@record
class Data:
    """Import data: ``file`` (one file), ``directory`` (a folder of files) or ``remote``
    (a URL, resolved into a folder when the import is initialised)."""

    type: str
    place: FileRef | None = None
    """the data's folder: in the data directory (uploads) or of this machine"""
    file: FileEntry | None = None
    files: list[FileEntry] = field(default_factory=list)
    format: str | None = None
    charset: str | None = None
    message: str | None = None
    location: str | None = None
    """what a ``remote`` data names (and ``username``/``password``/``domain`` with it)"""
    username: str | None = None
    password: str | None = None
    domain: str | None = None

    def entry(self, name: str) -> FileEntry | None:
        """The file of a directory by its name (``/data/files/<name>``)."""
        return next((f for f in self.files if f.basename == name), None)


@record
class Target:
    """A task's target store: an existing store of the catalog (``existing``), or the one a
    direct import adds (``group``: the tasks that share it, one per data item)."""

    name: str
    workspace: str
    kind: str
    """``dataStore`` or ``coverageStore``"""
    type: str | None = None
    existing: bool = False
    enabled: bool = True
    description: str | None = None
    params: dict[str, str] = field(default_factory=dict)
    url: str | None = None
    group: int = 0


@record
class LayerPlan:
    """What a task will publish: the resource (feature type or coverage) and its layer."""

    kind: str
    """``featureType`` or ``coverage``"""
    name: str
    native_name: str
    original_name: str
    title: str | None = None
    abstract: str | None = None
    description: str | None = None
    srs: str | None = None
    native_crs: str | None = None
    bbox: BBox | None = None
    latlon: BBox | None = None
    projection_policy: str | None = None
    attributes: list[Attribute] = field(default_factory=list)
    style: StyleRef | None = None
    """the layer's default style: one of the catalog, or the one ``generated`` describes"""
    generated: GeneratedStyle | None = None


@record
class GeneratedStyle:
    """The style GeoServer's ``StyleGenerator`` makes for an imported layer (added to the
    catalog when the task runs): its name, template and colour, or an uploaded body."""

    name: str
    template: str
    color_name: str = ""
    color_code: str = ""
    body: bytes | None = None


@record
class Transform:
    """One transform of a chain: its type (``DateFormatTransform``…) and its fields."""

    type: str
    fields: dict[str, Any] = field(default_factory=dict)


@record
class ImportTask:
    id: int
    state: str = "PENDING"
    update_mode: str = "CREATE"
    data: Data | None = None
    source: str | None = None
    """the data's item this task imports: a shapefile's or a table's type name, a raster's
    file (None for a task of unknown format)"""
    target: Target | None = None
    layer: LayerPlan | None = None
    direct: bool = True
    chain: str = "vector"
    transforms: list[Transform] = field(default_factory=list)
    error: str | None = None
    messages: list[tuple[str, str]] = field(default_factory=list)
    table: FeatureTable | None = None
    """the features read from the data (vector tasks)"""
    raster: Raster | None = None
    """the grid read from the data (raster tasks)"""
    raster_format: str | None = None
    processed: int = 0
    total: int = 0


@record
class Job:
    """Work an asynchronous request left to the simulated clock: initialise the import
    (``init``), run its ready tasks (``run``), or both."""

    import_id: int
    start: float
    init: bool = False
    run: bool = False
    task: int | None = None
    """the task running now (None between tasks)"""
    task_start: float = 0.0
    done: list[int] = field(default_factory=list)


@record
class ImportContext:
    id: int
    state: str = "PENDING"
    data: Data | None = None
    target_workspace: str | None = None
    target_store: tuple[str, str] | None = None
    """(workspace, name) of the context's target store"""
    tasks: list[ImportTask] = field(default_factory=list)
    next_task: int = 0
    default_transforms: list[Transform] = field(default_factory=list)
    archive: bool = False
    message: str | None = None
    stores: dict[int, str] = field(default_factory=dict)
    """the stores the direct tasks added, by their target's group"""
    user: str | None = None

    def task(self, task_id: int) -> ImportTask | None:
        return next((t for t in self.tasks if t.id == task_id), None)

    def add_task(self, task: ImportTask) -> ImportTask:
        """``ImportContext.addTask``: number it, append it, give it the default transforms
        of its chain's kind."""
        task.id = self.next_task
        self.next_task += 1
        kind = "raster" if task.chain == "raster" else "vector"
        task.transforms.extend(
            Transform(t.type, dict(t.fields)) for t in self.default_transforms if kind_of(t) == kind
        )
        self.tasks.append(task)
        return task

    def update_state(self) -> None:
        """``ImportContext.updateState``: COMPLETE when every task is, RUNNING while one
        runs, else PENDING (an empty context keeps INIT and INIT_ERROR)."""
        if not self.tasks:
            if self.state not in ("INIT", "INIT_ERROR"):
                self.state = "PENDING"
            return
        new = "COMPLETE"
        for task in self.tasks:
            if task.state == "COMPLETE":
                continue
            new = "RUNNING" if task.state == "RUNNING" else "PENDING"
            break
        self.state = new


RASTER_TRANSFORMS = frozenset({"GdalTranslateTransform", "GdalWarpTransform", "GdalAddoTransform"})


def kind_of(transform: Transform) -> str:
    """``raster`` for the transforms of raster chains, else ``vector``."""
    return "raster" if transform.type in RASTER_TRANSFORMS else "vector"


@tracked
class ImportStore:
    """The import contexts (in the order they were last saved), the id counters, the
    style generator's colour ramp and the clock's jobs."""

    def __init__(self) -> None:
        self.imports: TrackedDict[int, ImportContext] = TrackedDict()
        self.next_id = 0
        self.next_folder = 0
        self.ramp = 9
        """the colour ramp's position: the first generated style is red"""
        self.jobs: list[Job] = []

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImportStore):
            return NotImplemented
        return vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]

    def get(self, import_id: int) -> ImportContext | None:
        return self.imports.get(import_id)

    def require(self, import_id: int) -> ImportContext:
        found = self.imports.get(import_id)
        if found is None:
            raise NotFound(f"No such import: {import_id}")
        return found

    def require_task(self, import_id: int, task_id: int) -> ImportTask:
        context = self.require(import_id)
        task = context.task(task_id)
        if task is None:
            raise NotFound(f"No such task: {task_id} for import: {context.id}")
        return task

    def create(self, import_id: int | None = None) -> ImportContext:
        """A new context: the next id, or ``import_id`` when it is past the counter
        (``advanceId``: the counter moves past it; an id already reached takes the next)."""
        if import_id is None or import_id <= self.next_id:
            new_id = self.next_id
            self.next_id += 1
        else:
            new_id = import_id
            self.next_id = import_id + 1
        context = ImportContext(new_id)
        if import_id is None and len(self.imports) >= MAX_IMPORTS:
            for key in [k for k, c in self.imports.items() if c.state == "COMPLETE"]:
                del self.imports[key]
        self.imports.pop(new_id, None)
        self.imports[new_id] = context
        return context

    def save(self, context: ImportContext) -> None:
        """``changed``: the state follows the tasks', and the context moves to the end."""
        context.update_state()
        self.imports.pop(context.id, None)
        self.imports[context.id] = context

    def delete(self, import_id: int) -> None:
        self.imports.pop(import_id, None)
        self.jobs = [j for j in self.jobs if j.import_id != import_id]

    def folder(self) -> str:
        """A new upload folder (``Directory.createNew``): ``uploads/tmp<n>``."""
        name = f"uploads/tmp{self.next_folder}"
        self.next_folder += 1
        return name
