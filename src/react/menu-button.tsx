import { type KeyboardEvent, type MouseEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";

export interface MenuItem {
  /** Stable key. */
  id: string;
  label: ReactNode;
  /** Runs after the menu has closed and focus is back on its button. */
  onSelect: () => void;
  /** Rendered as a link (middle-click and "open in new tab" keep working); onSelect still runs on a plain click. */
  href?: string;
  /** A choice among several (the active organization): role menuitemradio with aria-checked. */
  checked?: boolean;
  testId?: string;
}

/**
 * The WAI-ARIA menu button pattern: Enter, Space or ArrowDown opens the menu on its first item,
 * ArrowUp on its last; in the menu the arrows, Home and End move, Enter and Space act, Escape
 * closes and gives focus back to the button, Tab closes and moves on. Nothing happens until an item
 * is chosen (a native select acts on every arrow key).
 *
 * @example
 * <MenuButton
 *   menuLabel="Export"
 *   buttonContent="Export"
 *   items={[
 *     { id: "csv", label: "CSV", onSelect: () => download("csv") },
 *     { id: "docs", label: "Help", href: "/docs/export", onSelect: () => navigate("/docs/export") },
 *   ]}
 * />
 */
export function MenuButton({
  menuLabel,
  buttonContent,
  items,
  testId,
  className = "",
}: {
  /** The menu's accessible name; the button is named by its content (visible words, hidden ones for context). */
  menuLabel: string;
  buttonContent: ReactNode;
  items: MenuItem[];
  testId?: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  const menuId = useId();

  useEffect(() => {
    if (open) itemRefs.current[active]?.focus();
  }, [open, active]);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const openAt = (index: number) => {
    setActive(Math.max(0, Math.min(index, items.length - 1)));
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const choose = (item: MenuItem) => {
    close();
    item.onSelect();
  };
  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      openAt(event.key === "ArrowDown" ? 0 : items.length - 1);
    }
  };
  const onMenuKeyDown = (event: KeyboardEvent) => {
    const last = items.length - 1;
    const moves: Record<string, () => number> = {
      ArrowDown: () => (active >= last ? 0 : active + 1),
      ArrowUp: () => (active <= 0 ? last : active - 1),
      Home: () => 0,
      End: () => last,
    };
    if (moves[event.key]) {
      event.preventDefault();
      setActive(moves[event.key]!());
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (event.key === "Tab") {
      setOpen(false);
    } else if (event.key === "Enter") {
      event.preventDefault();
      const item = items[active];
      if (item) choose(item);
    } else if (event.key === " ") {
      event.preventDefault(); // Space acts on key-up, or its key-up would press the button focus returns to.
    }
  };
  const onMenuKeyUp = (event: KeyboardEvent) => {
    const item = items[active];
    if (event.key === " " && item) choose(item);
  };
  const onItemClick = (event: MouseEvent, item: MenuItem) => {
    // A plain click stays in the application; modified clicks open the link the browser's way.
    if (item.href && (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0)) return;
    event.preventDefault();
    choose(item);
  };

  return (
    <div className={`gh-menu ${className}`} ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="gh-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid={testId}
        onClick={() => (open ? setOpen(false) : openAt(0))}
        onKeyDown={onButtonKeyDown}
      >
        {buttonContent}
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={menuLabel}
          className="gh-menu-list"
          onKeyDown={onMenuKeyDown}
          onKeyUp={onMenuKeyUp}
        >
          {items.map((item, index) => {
            const shared = {
              ref: (node: HTMLElement | null) => {
                itemRefs.current[index] = node;
              },
              role: item.checked === undefined ? "menuitem" : "menuitemradio",
              "aria-checked": item.checked,
              tabIndex: index === active ? 0 : -1,
              className: "gh-menu-item",
              "data-testid": item.testId,
              onClick: (event: MouseEvent) => onItemClick(event, item),
              onMouseEnter: () => setActive(index),
            };
            return item.href ? (
              <a key={item.id} href={item.href} {...shared}>
                {item.label}
              </a>
            ) : (
              <button key={item.id} type="button" {...shared}>
                {item.label}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
