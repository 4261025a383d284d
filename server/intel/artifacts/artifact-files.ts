/** The file operations the store needs; tests swap them to simulate a full disk. */
export interface ArtifactFiles {
  write(file: string, text: string): void;
  read(file: string): string;
  remove(file: string): void;
  list(dir: string): string[];
  mtime(file: string): number;
}
