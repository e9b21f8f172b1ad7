/** One section of the briefing, rendered: a title and one-line items. */
export interface Section {
  title: string;
  items: string[];
  /** Items left out before the budget was applied (over the section's own cap). */
  hidden?: number;
  /** The line shown when items were left out (by the cap or the budget), e.g. "- 12 older decisions: `mem list --kind decision`". */
  more?: (hidden: number) => string;
  /** The line that stands for the section in "Not shown for lack of room" when none of it fits (default: `more` of all its items). */
  gone?: string;
  /** A share of the briefing this section draws on together with the others of its pool (the hot notes', the tasks'), so it cannot crowd out what follows. */
  pool?: "notes" | "tasks";
}
