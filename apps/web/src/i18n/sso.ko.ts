import type { ssoEn } from './sso.en';

/** Korean strings of single sign-on on the sign-in page; spread into `ko.ts`. */
export const ssoKo: Record<keyof typeof ssoEn, string> = {
  'signIn.sso.button': '{name}(으)로 로그인',
  'signIn.sso.or': '또는 비밀번호로',
  'signIn.sso.only': '이 서버는 {name}을(를) 통해서만 로그인합니다.',
  'signIn.sso.finishing': '로그인하는 중...',
  'signIn.sso.failedTitle': '통합 로그인(SSO)으로 로그인하지 못했습니다',
  'signIn.sso.provider_unreachable':
    '로그인 제공자에 연결할 수 없습니다. 잠시 후 다시 시도하거나 이 서버의 운영자에게 알려 주세요.',
  'signIn.sso.expired':
    '로그인이 너무 오래 걸렸거나, 이미 사용되었거나, 다른 브라우저에서 시작되었습니다. 다시 로그인해 주세요.',
  'signIn.sso.refused_by_provider': '로그인 제공자가 로그인을 거부했습니다.',
  'signIn.sso.no_email':
    '로그인 제공자가 이메일 주소를 주지 않았습니다. 이곳의 계정은 이메일 주소로 찾습니다.',
  'signIn.sso.email_not_verified': '로그인 제공자가 아직 이메일 주소를 확인하지 않았습니다.',
  'signIn.sso.no_account': '이 이메일 주소의 계정이 없습니다. 이 서버의 운영자에게 계정을 요청하세요.',
};
