/** How a runtime is started (createRuntime, and the CLI's read-only commands through runtime-parts.ts). */
export interface RuntimeOptions {
  env?: NodeJS.ProcessEnv;
  /** Add the bundled demo powers. */
  demo?: boolean;
  /** Folder holding the demo powers' npm servers (default: this package's node_modules). */
  demoModules?: string;
  /** Spell folders to use instead of `$GRIMOIRE_HOME`. */
  spellDirs?: string[];
  workspaceFolder?: string;
  /** Read VS Code's and Claude Desktop's configs (subject to the settings too). */
  imports?: boolean;
  settingsOverrides?: Record<string, unknown>;
  /**
   * Start servers from the workspace and imported configs without the user's approval (a headless
   * run with no one to ask, such as CI: `serve --trust-workspace`).
   */
  trustWorkspace?: boolean;
  /** Reload powers when their files change. */
  watch?: boolean;
  /** The store in PostgreSQL (postgres://…); default GRIMOIRE_DATABASE_URL, else the embedded store. */
  databaseUrl?: string;
  /** PostgreSQL unreachable at start: keep retrying this long (default 10 s), telling `onStoreRetry`. */
  storeConnectForMs?: number;
  onStoreRetry?: (message: string) => void;
}

/** A spell folder with variables of its own (the bundled demo spells). */
export interface ExtraSpellDir {
  dir: string;
  kind: 'demo';
  vars: Record<string, string>;
}
