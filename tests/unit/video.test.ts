import { describe, expect, it } from 'vitest';
import { videoEmbedUrl } from '../../app/lib/video.ts';

const embed = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ';

describe('videoEmbedUrl: YouTube', () => {
  it.each([
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtube.com/watch?v=dQw4w9WgXcQ',
    'http://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s&list=PL123',
    'https://www.youtube.com/watch?feature=share&v=dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ?t=10',
    'https://www.youtube.com/embed/dQw4w9WgXcQ',
    'https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1',
    'https://www.youtube.com/shorts/dQw4w9WgXcQ',
    'https://www.youtube.com/live/dQw4w9WgXcQ',
    'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
  ])('embeds %s through youtube-nocookie', (url) => {
    expect(videoEmbedUrl(url)).toBe(embed);
  });

  it('embeds the demo inventory walkthroughs', () => {
    expect(videoEmbedUrl('https://www.youtube.com/embed/b9KfW2sLq8E')).toBe('https://www.youtube-nocookie.com/embed/b9KfW2sLq8E');
    expect(videoEmbedUrl('https://www.youtube.com/embed/dQ4k8Lz2mYw')).toBe('https://www.youtube-nocookie.com/embed/dQ4k8Lz2mYw');
  });

  it.each([
    'https://www.youtube.com/watch',
    'https://www.youtube.com/watch?v=',
    'https://www.youtube.com/',
    'https://www.youtube.com/channel/UC1234567890',
    'https://youtu.be/',
    'https://www.youtube.com/watch?v=abc',
    'https://www.youtube.com/watch?v=%22%3E%3Cscript%3E',
    'https://youtu.be/abc%22def%3Cx',
    'https://www.youtube.com/watch?v=' + 'a'.repeat(40),
  ])('refuses %s (no usable video id)', (url) => {
    expect(videoEmbedUrl(url)).toBeNull();
  });

  it.each([
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'https://evil.example/watch?v=dQw4w9WgXcQ',
    'https://notyoutube.com/watch?v=dQw4w9WgXcQ',
    'https://evil.example/youtu.be/dQw4w9WgXcQ',
  ])('refuses look-alike host %s', (url) => {
    expect(videoEmbedUrl(url)).toBeNull();
  });
});

describe('videoEmbedUrl: Vimeo', () => {
  it.each([
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://www.vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://player.vimeo.com/video/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://vimeo.com/channels/staffpicks/76979871', 'https://player.vimeo.com/video/76979871'],
  ])('embeds %s', (url, expected) => {
    expect(videoEmbedUrl(url)).toBe(expected);
  });

  it('refuses Vimeo pages that are not a video', () => {
    expect(videoEmbedUrl('https://vimeo.com/')).toBeNull();
    expect(videoEmbedUrl('https://vimeo.com/about')).toBeNull();
    // A profile page whose name holds digits is not the video with those digits.
    expect(videoEmbedUrl('https://vimeo.com/user12345678')).toBeNull();
  });
});

describe('videoEmbedUrl: everything else', () => {
  it.each([
    '',
    'not a url',
    '/videos/walkthrough.mp4',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://example.com/walkthrough.mp4',
    'https://www.dailymotion.com/video/x7tgad0',
  ])('does not embed %j', (url) => {
    expect(videoEmbedUrl(url)).toBeNull();
  });

  it('only ever returns an https URL on YouTube or Vimeo', () => {
    const samples = ['https://youtu.be/dQw4w9WgXcQ', 'https://vimeo.com/76979871', 'https://www.youtube.com/shorts/dQw4w9WgXcQ'];
    for (const sample of samples) {
      const url = new URL(videoEmbedUrl(sample)!);
      expect(url.protocol).toBe('https:');
      expect(['www.youtube-nocookie.com', 'player.vimeo.com']).toContain(url.hostname);
    }
  });
});
