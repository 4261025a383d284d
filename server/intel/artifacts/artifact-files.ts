/**
 * The file operations the store needs; tests swap them to simulate a full disk. What reads a body
 * or lists them can wait: a store that spans machines reads them in the database when asked for.
 */
export interface ArtifactFiles {
  write(file: string, text: string): void;
  read(file: string): Promise<string>;
  remove(file: string): void;
  list(dir: string): Promise<string[]>;
  mtime(file: string): Promise<number>;
}
