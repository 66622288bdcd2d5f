import { downloadFileName } from './download-name';

describe('downloadFileName', () => {
  it('makes a portable name with the extension of the content type', () => {
    expect(downloadFileName('Photo 1 (Living room) staged', 'image/jpeg')).toBe('photo-1-living-room-staged.jpg');
    expect(downloadFileName('Salón de Ópera', 'image/webp')).toBe('salon-de-opera.webp');
    expect(downloadFileName('///', 'application/octet-stream')).toBe('photo.img');
  });
});
