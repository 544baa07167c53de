import type { ComponentProps } from 'react';
import { NativeSelect } from '@/components/ui/native-select';

/**
 * A choice of IANA time zone (lib/time-zones.ts `timeZoneChoices`): a workspace's and a schedule's. The
 * caller computes `zones` once (the browser's list is long) and passes the select's own props through.
 */
export function TimeZoneSelect({
  zones,
  ...props
}: Omit<ComponentProps<typeof NativeSelect>, 'children'> & { zones: readonly string[] }) {
  return (
    <NativeSelect {...props}>
      {zones.map((zone) => (
        <option key={zone} value={zone}>
          {zone}
        </option>
      ))}
    </NativeSelect>
  );
}
