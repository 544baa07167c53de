import { useState, type DragEvent } from 'react';

/**
 * Reordering a list by HTML5 drag and drop (docs/reference/02-running.md §2 "UI tests":
 * drag and drop, plus move-up and move-down buttons, which are the keyboard's way). A card is dragged by
 * its handle, showing the whole card under the pointer, and dropped on another card, taking its place.
 */
export function useDragReorder(onMove: (from: number, to: number) => void) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);

  const end = () => {
    setDragging(null);
    setOver(null);
  };

  /** The handle of the card at `index`; the pointer carries the handle's `[data-drag-card]` ancestor. */
  const handleProps = (index: number) => ({
    draggable: true,
    onDragStart: (event: DragEvent<HTMLElement>) => {
      setDragging(index);
      event.dataTransfer.effectAllowed = 'move';
      // Some browsers start a drag only when it carries data.
      event.dataTransfer.setData('text/plain', String(index + 1));
      const card = event.currentTarget.closest<HTMLElement>('[data-drag-card]');
      if (card) event.dataTransfer.setDragImage(card, 24, 24);
    },
    onDragEnd: end,
  });

  /** The card at `index` as a place to drop on. */
  const targetProps = (index: number) => ({
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (dragging === null) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      if (over !== index) setOver(index);
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      if (dragging === null) return;
      event.preventDefault();
      if (dragging !== index) onMove(dragging, index);
      end();
    },
  });

  return { dragging, over, handleProps, targetProps };
}
