import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from "@dnd-kit/core";
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useEffect, useState, type ReactNode } from "react";
import { widgetTitle, type WidgetId } from "../dashboard.constants";

/**
 * The dashboard's widgets in order, reordered by drag and drop with the pointer or the keyboard
 * (the handle: Space or Enter picks a widget up, the arrow keys move it, Space or Enter drops it,
 * Escape cancels; every step is announced). The Up and Down buttons of each row do the same
 * without a drag. `onReorder` receives the new order once the widget is dropped.
 */
export function SortableWidgetList({ layout, onReorder, renderRow }: { layout: WidgetId[]; onReorder: (order: WidgetId[]) => void; renderRow: (id: WidgetId, index: number, handle: ReactNode) => ReactNode }) {
  const [order, setOrder] = useState(layout);
  useEffect(() => setOrder(layout), [layout]);
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const position = (id: unknown) => order.indexOf(id as WidgetId) + 1;
  const name = (id: unknown) => widgetTitle(id as WidgetId);
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}, position ${position(active.id)} of ${order.length}.`,
    onDragOver: ({ active, over }) => (over ? `${name(active.id)} moved to position ${position(over.id)} of ${order.length}.` : `${name(active.id)} is no longer over the list.`),
    onDragEnd: ({ active, over }) => (over ? `${name(active.id)} dropped at position ${position(over.id)} of ${order.length}.` : `${name(active.id)} dropped.`),
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled.`,
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const next = arrayMove(order, order.indexOf(active.id as WidgetId), order.indexOf(over.id as WidgetId));
    setOrder(next);
    onReorder(next);
  }

  return (
    // A fixed id: the server and the browser must render the same accessibility ids (STACK.md).
    <DndContext
      id="dashboard-layout"
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: "To move a widget, press Space or Enter, then the up and down arrow keys, then Space or Enter to drop it, or Escape to cancel." },
      }}
    >
      <SortableContext items={order} strategy={verticalListSortingStrategy}>
        <ol className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" aria-label="Widgets on your dashboard, in order">
          {order.map((id, index) => (
            <SortableRow key={id} id={id}>
              {(handle) => renderRow(id, index, handle)}
            </SortableRow>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow({ id, children }: { id: WidgetId; children: (handle: ReactNode) => ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const handle = (
    <button
      type="button"
      ref={setActivatorNodeRef}
      {...attributes}
      {...listeners}
      aria-label={`Drag ${widgetTitle(id)}`}
      className="cursor-grab touch-none rounded-md border border-slate-300 bg-white px-2 py-1.5 text-slate-600 hover:bg-slate-50 active:cursor-grabbing"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4">
        <path d="M7 4a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zm0 6a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zm-1.5 7.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM16 4a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0zm-1.5 7.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM16 16a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0z" />
      </svg>
    </button>
  );
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={isDragging ? "relative z-10 bg-brand-50 shadow-md" : undefined}
      data-testid="layout-widget"
      data-widget={id}
    >
      {children(handle)}
    </li>
  );
}
