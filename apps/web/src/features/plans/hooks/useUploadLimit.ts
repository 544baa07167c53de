import { contract } from '@aqa/contract';
import { useRouteQuery } from '@/lib/queries';

/**
 * The largest file this server accepts in one upload (GET /api/upload-limits, UPLOAD_MAX_FILE_MB;
 * docs/adr/0024-memory-bounds.md), through the query cache; null until it answered or when it could
 * not be asked (the server's own refusal then says it).
 */
export function useUploadLimit(): number | null {
  return useRouteQuery(contract.system.uploadLimits).data?.max_file_bytes ?? null;
}
