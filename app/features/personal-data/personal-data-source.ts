import type { ServiceContext } from "~/lib/service-context.server";

/** One file of a member's export: a path inside the zip and JSON-serialisable data. */
export type PersonalDataRecord = {
  /** Relative path inside the zip, e.g. "profile.json" or "files/index.json". */
  path: string;
  data: unknown;
  /** One sentence for README.txt saying what the file holds. */
  description?: string;
};

/**
 * What a module declares about the personal data it owns (GDPR access and erasure). `export`
 * returns the member's records; `erase` removes or anonymises every row of that module the
 * member owns and returns the R2 object keys that must be deleted afterwards (the deletion
 * itself runs in a job, so erase stays quick and never depends on R2 being up).
 */
export type PersonalDataSource = {
  /** Unique, kebab-case; used in logs. */
  name: string;
  export: (ctx: ServiceContext, userId: string) => Promise<PersonalDataRecord[]>;
  erase: (ctx: ServiceContext, userId: string) => Promise<{ r2Keys: string[] }>;
  /**
   * Refuses the deletion (an AppError saying what to do first) while the member holds something
   * others depend on, such as a team they own. Every source is asked before anything is erased.
   */
  assertErasable?: (ctx: ServiceContext, userId: string) => Promise<void>;
};

/**
 * Declares a module's personal data source. Lives apart from registry.server.ts (like
 * defineJob and the job registry) so a source can be defined without importing the registry,
 * which imports every source.
 */
export function definePersonalDataSource(source: PersonalDataSource): PersonalDataSource {
  return source;
}
