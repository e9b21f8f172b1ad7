/** One line of `mem doctor`'s report (and of the explorer's health page): src/health/ holds the checks both run. */
export interface Check {
  name: string;
  status: "ok" | "warn" | "error";
  detail: string;
  fix?: string;
}
