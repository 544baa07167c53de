import type { runElsewhereEn } from './run-elsewhere.en';

/** Korean strings of run-elsewhere.en.ts. */
export const runElsewhereKo: Record<keyof typeof runElsewhereEn, string> = {
  'runElsewhere.title': '이 서버의 {tool}(으)로는 이 플랜을 실행할 수 없습니다',
  'runElsewhere.text': '내장 엔진이나 Locust로 실행하거나, 위에 적힌 항목을 바꾸세요.',
  'runElsewhere.failedTitle': '다른 엔진으로 실행',
  'runElsewhere.failedText':
    '{tool}(으)로 이 플랜을 실행하지 못했습니다. 내장 엔진과 Locust는 같은 플랜을 실행합니다.',
  'runElsewhere.builtin': '내장 엔진으로 실행',
  'runElsewhere.locust': 'Locust로 실행',
  'runElsewhere.starting': '시작하는 중…',
  'runElsewhere.failed': '실행을 시작하지 못했습니다: {message}',
};
