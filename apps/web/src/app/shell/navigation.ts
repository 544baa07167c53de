import {
  Bell,
  Bookmark,
  CalendarClock,
  Download,
  FileCode,
  FileUp,
  FlaskConical,
  Gauge,
  Link2,
  MessageCircle,
  MessageSquare,
  MousePointerClick,
  Settings,
  User,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import type { MessageKey } from '@/i18n/en';
import type { ScreenId } from '@/lib/screens';

export interface NavLinkItem {
  kind: 'link';
  screen: ScreenId;
  label: MessageKey;
  icon: LucideIcon;
  testId: string;
  /** Opens an editor for a new plan: not offered to a viewer (docs/adr/0035-workspaces-and-roles.md). */
  creates?: boolean;
}

export interface NavGroupItem {
  kind: 'group';
  id: string;
  label: MessageKey;
  icon: LucideIcon;
  children: NavLinkItem[];
}

export type NavItem = NavLinkItem | NavGroupItem;

const link = (screen: ScreenId, label: MessageKey, icon: LucideIcon, testId: string): NavLinkItem => ({
  kind: 'link',
  screen,
  label,
  icon,
  testId,
});
const creating = (item: NavLinkItem): NavLinkItem => ({ ...item, creates: true });

/** The sidebar of docs/reference/01-authoring.md §2 "Shell", in its order. Items whose screen is not built show as "Coming soon". */
export const NAV_PRIMARY: NavItem[] = [
  link('dashboard', 'nav.plans', Bookmark, 'nav-plans'),
  {
    kind: 'group',
    id: 'performance',
    label: 'nav.performanceTest',
    icon: Gauge,
    children: [
      creating(link('createTestUrl', 'nav.inputUrls', Link2, 'nav-performance-input-urls')),
      creating(link('createTestScript', 'nav.uploadScript', FileUp, 'nav-performance-upload-script')),
    ],
  },
  {
    kind: 'group',
    id: 'functional',
    label: 'nav.functionalTest',
    icon: FlaskConical,
    children: [
      creating(link('functionalUrl', 'nav.apiTest', Webhook, 'nav-functional-api-test')),
      creating(
        link('functionalScript', 'nav.functionalUploadScript', FileCode, 'nav-functional-upload-script'),
      ),
      creating(link('functionalUi', 'nav.uiTest', MousePointerClick, 'nav-functional-ui-test')),
    ],
  },
  link('schedules', 'nav.schedules', CalendarClock, 'nav-schedules'),
];

export const NAV_SECONDARY: NavLinkItem[] = [
  link('profile', 'nav.profile', User, 'nav-profile'),
  link('messages', 'nav.messages', MessageSquare, 'nav-messages'),
  link('downloadApp', 'nav.downloadApp', Download, 'nav-download-app'),
  link('feedback', 'nav.feedback', MessageCircle, 'nav-feedback'),
  link('notifications', 'nav.notifications', Bell, 'nav-notifications'),
  link('settings', 'nav.setting', Settings, 'nav-setting'),
];
