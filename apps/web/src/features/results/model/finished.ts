/** A run that has ended: it can be deleted and its report downloaded (the server refuses live ones). */
export function isFinished(status: string | null | undefined): boolean {
  return status === 'completed' || status === 'failed' || status === 'stopped';
}
